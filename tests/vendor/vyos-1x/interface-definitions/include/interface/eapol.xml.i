<!-- include start from interface/eapol.xml.i -->
<node name="eapol">
  <properties>
     <help>Extensible Authentication Protocol over Local Area Network</help>
  </properties>
  <children>
    #include <include/pki/ca-certificate-multi.xml.i>
    #include <include/pki/certificate-key.xml.i>
  </children>
</node>
<!-- include end -->
